/**
 * The explorer's start: an address to look up (checked before navigating), and on a demo server its
 * example accounts with what each holds, as quick links.
 */
import '../explorer.css'
import { useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { Address } from '../components/address.tsx'
import { Field } from '../components/form.tsx'
import { KeyPicker } from '../components/key-picker.tsx'
import { ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { TableWrap } from '../components/table-wrap.tsx'
import { addressProblem } from '../explorer-address.ts'
import { loadDemoAccounts } from '../explorer-api.ts'
import { paths } from '../paths.ts'
import { useQuery } from '../query.ts'
import { apiKey } from '../session.ts'

export function ExplorerPage() {
  const { route } = useLocation()
  const [address, setAddress] = useState('')
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const submit = (event: Event) => {
    event.preventDefault()
    const text = address.trim()
    const found = addressProblem(text)
    setProblem(found ?? undefined)
    if (found === null) route(paths.account(text))
  }
  return (
    <>
      <PageTitle title="Explorer">
        What an account holds in every indexed protocol, now or at any indexed ledger, and what it did.
      </PageTitle>
      <KeyPicker />
      <form class="stack address-form" onSubmit={submit} noValidate>
        <Field
          id="address"
          label="Account or contract address"
          placeholder="G… or C…"
          autoComplete="off"
          spellcheck={false}
          value={address}
          error={problem}
          help="A Stellar account (G…) or contract (C…), 56 characters."
          onInput={(e: Event) => setAddress((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Look up</button>
      </form>
      {apiKey.value !== null && <DemoAccounts />}
    </>
  )
}

function DemoAccounts() {
  const query = useQuery('explorer:demo-accounts', loadDemoAccounts)
  if (query.error) return <ErrorNote error={query.error} title="Could not list the demo's accounts" />
  if (query.data === undefined) return <Placeholder lines={5} label="Looking for example accounts" />
  // Not a demo server: no examples to offer.
  if (query.data === null || query.data.length === 0) return null
  return (
    <section aria-labelledby="demo-accounts">
      <h2 id="demo-accounts">Example accounts of this demo network</h2>
      <TableWrap label="Example accounts">
        <table>
          <thead>
            <tr>
              <th scope="col">Example of</th>
              <th scope="col">Account</th>
              <th scope="col">Holds positions in</th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((account) => (
              <tr key={`${account.example_of}:${account.address}`} data-testid="demo-account">
                <td>
                  <a href={paths.account(account.address)}>{account.example_of}</a>
                </td>
                <td>
                  <Address value={account.address} href={paths.account(account.address)} />
                </td>
                <td>{account.protocols.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  )
}
