// Touch targets of at least 44 × 44 px (WCAG 2.5.5; issue #19: gloved fingers in sunlight) for links that read as
// text. Buttons get theirs from `buttonClass`. Both are named in app.css (`.tap-target`, `.row-link`): lists repeat them
// on every row.

/** A link that stands alone (not inside a sentence): the text keeps its look, the tap area is 44 px tall. */
export const textLinkTarget = 'tap-target'

/**
 * A link whose whole row is the target: it stretches over the nearest positioned ancestor (give the row `relative`).
 * Other controls in the row need `relative z-10` to stay on top.
 */
export const rowLinkTarget = 'row-link'
