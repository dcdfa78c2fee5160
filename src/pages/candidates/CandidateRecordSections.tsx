import type { ReactNode } from 'react';
import {
  resultCells,
  type CandidateDossier,
  type DossierOffence,
  type DossierPayment,
  type DossierRegistration,
  type DossierResult,
} from '../../../contract/candidateDossier';
import { UPLOAD_LABELS } from '../../../contract/candidates';
import { formatDateTime } from '../../../contract/format';
import { PAYMENT_STATUS_LABELS, formatNaira } from '../../../contract/payments';
import { ListTable } from '../../ui/ListView';

/** The record page's sections (CandidateRecordPage.tsx): each headed, and each saying so when empty. */

const headingId = (title: string) => `record-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={headingId(title)} className="rounded-md bg-white p-4 ring-1 ring-slate-200">
      <h2 id={headingId(title)} className="mb-3 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const Empty = ({ children }: { children: string }) => <p className="text-sm text-slate-600">{children}</p>;

/** A section's table; its rows as cells, the first cell a row header. */
function Table({ head, rows }: { head: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  return (
    <ListTable head={head} busy={false} empty="" isEmpty={false}>
      {rows.map((row) => (
        <tr key={row.key}>
          {row.cells.map((cell, index) =>
            index === 0 ? (
              <th key={index} scope="row" className="px-4 py-2 text-left font-normal">
                {cell}
              </th>
            ) : (
              <td key={index} className="px-4 py-2">
                {cell}
              </td>
            ),
          )}
        </tr>
      ))}
    </ListTable>
  );
}

/** A stored file in a new tab; `noopener`, so the file's tab cannot reach back into the portal. */
function NewTab({ href, label, children }: { href: string; label: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener" aria-label={label} className="text-brand-700 underline">
      {children}
    </a>
  );
}

export function DocumentsSection({
  documents,
  owner,
}: {
  documents: CandidateDossier['documents'];
  owner: string;
}) {
  const { uploads, verification } = documents;
  return (
    <Section title="Documents">
      <p className="mb-3 text-sm" data-testid="record-verification">
        {verification.verified
          ? `Verified by the board${verification.by ? ` (${verification.by})` : ''}${
              verification.at ? ` on ${formatDateTime(verification.at)}` : ''
            }.`
          : 'Not verified by the board yet.'}
      </p>
      <Table
        head={['Document', 'Needed', 'Stored']}
        rows={uploads.map((upload) => ({
          key: upload.field,
          cells: [
            UPLOAD_LABELS[upload.field],
            upload.required ? 'Required' : 'Optional',
            upload.key ? (
              <NewTab
                href={`/files/${upload.key}`}
                label={`Open ${UPLOAD_LABELS[upload.field]} of ${owner} (in a new tab)`}
              >
                Stored ({upload.content_type === 'application/pdf' ? 'PDF' : 'image'})
              </NewTab>
            ) : (
              <span className={upload.required ? 'font-semibold text-red-700' : 'text-slate-600'}>
                Missing
              </span>
            ),
          ],
        }))}
      />
    </Section>
  );
}

export function RegistrationSection({ registrations }: { registrations: DossierRegistration[] }) {
  return (
    <Section title="Registration">
      {registrations.length === 0 ? (
        <Empty>Not registered for any diet yet.</Empty>
      ) : (
        <Table
          head={['Diet', 'Status', 'Since']}
          rows={registrations.map((row) => ({
            key: row.diet.code,
            cells: [
              `${row.diet.name}${row.current ? ' (current)' : ''}`,
              row.reg_status === 'registered' ? 'Registered' : 'Unregistered',
              formatDateTime(row.changed_at),
            ],
          }))}
        />
      )}
    </Section>
  );
}

export function PaymentsSection({ payments }: { payments: DossierPayment[] }) {
  return (
    <Section title="Payments">
      {payments.length === 0 ? (
        <Empty>No payment has listed this candidate.</Empty>
      ) : (
        <Table
          head={['Reference', 'Fee', 'Amount', 'Status', 'Date']}
          rows={payments.map((row) => ({
            key: row.reference,
            cells: [
              <span key="reference" className="font-mono break-all">
                {row.reference}
              </span>,
              `${row.fee.title} · ${row.fee.diet}`,
              formatNaira(row.amount_kobo),
              `${PAYMENT_STATUS_LABELS[row.status]}${row.receipt_number ? ` · receipt ${row.receipt_number}` : ''}`,
              formatDateTime(row.date),
            ],
          }))}
        />
      )}
    </Section>
  );
}

export function OffencesSection({ offences }: { offences: DossierOffence[] }) {
  return (
    <Section title="Offences and sanctions">
      {offences.length === 0 ? (
        <Empty>No exam offence is recorded against this candidate.</Empty>
      ) : (
        <Table
          head={['Diet', 'Offence', 'Sanction', 'In force']}
          rows={offences.map((row) => ({
            key: String(row.id),
            cells: [
              row.diet.name,
              row.offence,
              `${row.sanction} (${row.term})`,
              row.in_force ? <strong key="force">In force</strong> : 'Run out',
            ],
          }))}
        />
      )}
    </Section>
  );
}

export function ResultsSection({ results }: { results: DossierResult[] }) {
  return (
    <Section title="Results">
      {results.length === 0 ? (
        <Empty>No result of this candidate has been published.</Empty>
      ) : (
        <Table
          head={['Diet', 'Course', 'Exam', 'In-course', 'Final', 'Grade', 'Outcome']}
          rows={results.map((row) => ({
            key: `${row.diet.code}-${row.course_header}`,
            cells: [
              row.diet.name,
              ...resultCells(
                row,
                row.status === 'withdrawn' ? `Withdrawn on ${formatDateTime(row.withdrawn_at)}` : undefined,
              ),
            ],
          }))}
        />
      )}
    </Section>
  );
}

export function PrintSection({ dossier }: { dossier: CandidateDossier }) {
  const registeredNow = dossier.registrations.some((row) => row.current && row.reg_status === 'registered');
  const photocard = dossier.printable.some((doc) => doc.ending === 'photocard');
  return (
    <Section title="Print">
      {dossier.printable.length === 0 ? (
        <Empty>There is nothing about this candidate you may print.</Empty>
      ) : (
        <ul className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
          {dossier.printable.map((doc) => (
            <li key={doc.ending}>
              <a
                href={doc.href}
                target="_blank"
                rel="noopener"
                className="text-sm font-semibold text-brand-700 underline"
              >
                {doc.title}
                {doc.ending === 'photocard' && dossier.current_diet ? ` (${dossier.current_diet.name})` : ''}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {!photocard && (
        <p className="mt-2 text-sm text-slate-600">
          {!dossier.current_diet
            ? 'There is no current diet, so there is no photocard to print.'
            : registeredNow
              ? 'Photocards are not printed for your role.'
              : `A photocard is printed once the candidate is registered for ${dossier.current_diet.name}.`}
        </p>
      )}
    </Section>
  );
}
