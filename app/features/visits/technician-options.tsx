/** The choices of a visit's technician picker: "Unassigned" (posted blank, read as none), then the company's technicians. */
export function TechnicianOptions({ technicians }: { technicians: ReadonlyArray<{ id: string; name: string }> }) {
  return (
    <>
      <option value="">Unassigned</option>
      {technicians.map((t) => (
        <option key={t.id} value={t.id}>
          {t.name}
        </option>
      ))}
    </>
  )
}
