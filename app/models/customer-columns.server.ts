// A customer's own fields as every reader of customers selects them: the record page, the customer file (export and
// import) and the API. One list, so a field added to customers reaches all three alike.
import { customers } from '~/db/schema'

export const customerContactColumns = {
  id: customers.id,
  customerName: customers.customerName,
  email: customers.email,
  phone: customers.phone,
  billingAddress: customers.billingAddress,
  notes: customers.notes,
  status: customers.status,
}
