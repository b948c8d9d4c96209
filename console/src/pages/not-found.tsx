import { PageTitle } from '../components/status.tsx'
import { paths } from '../paths.ts'

export function NotFound() {
  return (
    <section>
      <PageTitle title="Page not found">This console has no page at this address.</PageTitle>
      <p>
        Go to the <a href={paths.explorer}>explorer</a> or the <a href={paths.protocols}>protocols</a>.
      </p>
    </section>
  )
}
