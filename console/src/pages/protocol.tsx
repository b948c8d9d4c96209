import { PageTitle } from '../components/status.tsx'

export function ProtocolPage() {
  return <PageTitle title="ProtocolPage">Being built.</PageTitle>
}
