import { PageTitle } from '../components/status.tsx'

export function ProtocolsPage() {
  return <PageTitle title="ProtocolsPage">Being built.</PageTitle>
}
