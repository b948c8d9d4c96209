import { PageTitle } from '../components/status.tsx'

export function TransactionPage() {
  return <PageTitle title="TransactionPage">Being built.</PageTitle>
}
