import { PageTitle } from '../components/status.tsx'

export function PoolPage() {
  return <PageTitle title="PoolPage">Being built.</PageTitle>
}
