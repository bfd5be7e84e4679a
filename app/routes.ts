import { index, layout, prefix, type RouteConfig, route } from '@react-router/dev/routes'

export default [
  layout('routes/marketing/layout.tsx', [
    index('routes/marketing/landing.tsx'),
    route('features', 'routes/marketing/features.tsx'),
    route('services', 'routes/marketing/services.tsx'),
    route('pricing', 'routes/marketing/pricing.tsx'),
    route('about', 'routes/marketing/about.tsx'),
  ]),
  layout('routes/auth/layout.tsx', [
    route('login', 'routes/auth/login.tsx'),
    route('forgot-password', 'routes/auth/forgot-password.tsx'),
    route('reset-password', 'routes/auth/reset-password.tsx'),
    route('welcome', 'routes/auth/welcome.tsx'),
    route('customer-setup', 'routes/auth/customer-setup.tsx'),
  ]),
  route('logout', 'routes/auth/logout.tsx'),
  route('app', 'routes/app/layout.tsx', [
    index('routes/app/dashboard.tsx'),
    route('account', 'routes/app/account.tsx'),
    route('customers', 'routes/app/customers.tsx'),
    route('inventory', 'routes/app/inventory.tsx'),
    route('settings', 'routes/app/settings.tsx'),
    route('jobs/:jobId', 'routes/app/job.tsx'),
    route('jobs/:jobId/photos/:kind', 'routes/resources/job-photo.ts'),
  ]),
  route('jobs/:jobId', 'routes/app/job-redirect.tsx'),
  route('app/events', 'routes/resources/events.ts'),
  route('customer/:customerId', 'routes/portal/customer.tsx'),
  route('customer/:customerId/photos/:jobId/:kind', 'routes/portal/customer-photo.ts'),
  ...prefix('api', [route('auth/*', 'routes/resources/auth.ts')]),
  route('dev/mailbox', 'routes/resources/dev-mailbox.tsx'),
  route('healthz', 'routes/resources/healthz.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
