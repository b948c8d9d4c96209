import { PageTitle } from '../components/status.tsx'

export function AuditLogPage() {
  return <PageTitle title="AuditLogPage">Being built.</PageTitle>
}
