// Choosing a customer in the new-visit form's combobox, as a user does: type, wait for the match, press Enter (or
// click it). Returns the chosen customer's id (the form's hidden field).
import type { Locator } from '@playwright/test'
import { expect } from './fixtures'

export async function pickCustomer(form: Locator, name: string, typed = name) {
  const box = form.getByRole('combobox', { name: 'Customer', exact: true })
  await box.fill(typed)
  const option = form.getByRole('option', { name: new RegExp(`^${literal(name)}`) }).first()
  await expect(option).toBeVisible()
  await option.click()
  await expect(box).toHaveValue(name)
  const id = form.locator('input[type="hidden"][name="customerId"]')
  await expect(id).not.toHaveValue('')
  return id.inputValue()
}

function literal(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
