import { PageTitle } from '../components/status.tsx'

export function ExplorerPage() {
  return <PageTitle title="ExplorerPage">Being built.</PageTitle>
}
