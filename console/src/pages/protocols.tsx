/**
 * Every protocol the API indexes: its kind, the ledgers indexed, and each contract it watches
 * (address, version, status, first ledger, whether the store holds its whole history), with a link
 * to the protocol's page.
 */
import '../protocol.css'
import { Address } from '../components/address.tsx'
import { KeyPicker } from '../components/key-picker.tsx'
import { Empty, ErrorNote, PageTitle, Placeholder } from '../components/status.tsx'
import { TableWrap } from '../components/table-wrap.tsx'
import { formatInteger } from '../format.ts'
import { paths } from '../paths.ts'
import { listProtocols, type ProtocolEntry } from '../protocol-data.ts'
import { useQuery } from '../query.ts'
import { apiKey } from '../session.ts'

const KIND_WORDS: Record<string, string> = {
  vault: 'Collateralized debt vaults',
  lending: 'Lending pools',
  amm: 'Automated market maker',
  yield: 'Yield vaults',
}

export function ProtocolsPage() {
  const key = apiKey.value
  return (
    <>
      <PageTitle title="Protocols">
        Every protocol the API indexes, the ledgers it covers, and its contracts.
      </PageTitle>
      <KeyPicker />
      {key ? <ProtocolsList apiKey={key} /> : <Empty>Pick an API key above to see the protocols.</Empty>}
    </>
  )
}

function ProtocolsList({ apiKey: key }: { apiKey: string }) {
  const query = useQuery(`protocols:list:${key}`, listProtocols)
  if (query.error) return <ErrorNote error={query.error} title="The protocols could not be loaded" />
  if (!query.data) return <Placeholder lines={12} label="Loading the protocols" />
  const { protocols } = query.data
  if (protocols.length === 0) return <Empty>The API indexes no protocol yet: its network lists none.</Empty>
  return (
    <div class="protocol-list" aria-busy={query.loading}>
      {protocols.map((protocol) => (
        <ProtocolSection key={protocol.name} protocol={protocol} />
      ))}
    </div>
  )
}

function ProtocolSection({ protocol }: { protocol: ProtocolEntry }) {
  const headingId = `protocol-${protocol.name}`
  return (
    <section class="protocol-section" aria-labelledby={headingId} data-protocol={protocol.name}>
      <h2 id={headingId}>
        <a href={paths.protocol(protocol.name)}>{protocol.name}</a>
      </h2>
      <dl class="facts">
        <div>
          <dt>Kind</dt>
          <dd>
            {protocol.kind}
            {KIND_WORDS[protocol.kind] ? ` (${KIND_WORDS[protocol.kind]})` : ''}
          </dd>
        </div>
        <div>
          <dt>Indexed range</dt>
          <dd class="indexed-range">
            {protocol.indexed_from_ledger === null || protocol.indexed_to_ledger === null
              ? 'Nothing indexed yet'
              : `Ledgers ${formatInteger(protocol.indexed_from_ledger)} to ${formatInteger(protocol.indexed_to_ledger)}`}
          </dd>
        </div>
        <div>
          <dt>Contracts</dt>
          <dd>{formatInteger(protocol.contracts.length)}</dd>
        </div>
      </dl>
      {protocol.contracts.length === 0 ? (
        <Empty>The network lists no contract for this protocol.</Empty>
      ) : (
        <TableWrap label={`Contracts of ${protocol.name}`}>
          <table>
            <caption class="visually-hidden">Contracts of {protocol.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Address</th>
                <th scope="col">Kind</th>
                <th scope="col">Version</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Start ledger
                </th>
                <th scope="col">History</th>
              </tr>
            </thead>
            <tbody>
              {protocol.contracts.map((contract) => (
                <tr key={contract.contract_address}>
                  <td>{contract.name}</td>
                  <td>
                    <Address value={contract.contract_address} />
                  </td>
                  <td>{contract.kind}</td>
                  <td>
                    <code>{contract.version}</code>
                  </td>
                  <td>
                    <span class={`badge ${contract.status === 'active' ? 'ok' : 'bad'}`}>
                      {contract.status}
                    </span>
                  </td>
                  <td class="num">{formatInteger(contract.start_ledger)}</td>
                  <td>{contract.history_complete ? 'Complete' : 'Partial: answers about it are partial'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <p>
        <a href={paths.protocol(protocol.name)}>Open {protocol.name}: TVL and pools</a>
      </p>
    </section>
  )
}
