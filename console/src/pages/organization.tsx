import { PageTitle } from '../components/status.tsx'

export function OrganizationPage() {
  return <PageTitle title="OrganizationPage">Being built.</PageTitle>
}
