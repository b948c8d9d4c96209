import { PageTitle } from '../components/status.tsx'

export function KeysPage() {
  return <PageTitle title="KeysPage">Being built.</PageTitle>
}
