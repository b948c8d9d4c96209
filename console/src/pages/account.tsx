import { PageTitle } from '../components/status.tsx'

export function AccountPage() {
  return <PageTitle title="AccountPage">Being built.</PageTitle>
}
