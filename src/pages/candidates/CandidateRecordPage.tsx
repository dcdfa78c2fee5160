import { Suspense, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import type { CandidateDossier } from '../../../contract/candidateDossier';
import { CANDIDATE_CATEGORIES } from '../../../contract/candidates';
import { MARITAL_STATUSES } from '../../../contract/constants';
import { formatDate, formatDateTime, formatPersonName } from '../../../contract/format';
import { CANDIDATE_RECORD_PAGE } from '../../../contract/navigation';
import type { Role } from '../../../contract/roles';
import { loadCandidateDossier } from '../../api/candidateRows';
import { useRole } from '../../app/actors';
import { History } from '../auditTrail/History';
import { LoadBoundary, useResource } from '../../app/resource';
import {
  DocumentsSection,
  OffencesSection,
  PaymentsSection,
  PrintSection,
  RegistrationSection,
  ResultsSection,
  Section,
} from './CandidateRecordSections';

/**
 * A candidate's record page (/candidate/record/<id>): who they are, their documents and the board's
 * check, registration, payments, offences and results per diet, and the papers about them to print.
 * It only reads; every change is made where it was before (the lists, the edit page).
 */
export function CandidateRecordPage() {
  const [location] = useLocation();
  const raw = location.slice(CANDIDATE_RECORD_PAGE.length + 1);
  // Only a whole number names a candidate; anything else is asked of nobody.
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  const role = useRole() ?? 'school_admin';
  if (id === null) {
    return (
      <section>
        <h1 className="text-2xl font-semibold">Candidate record</h1>
        <p className="mt-2 text-slate-600">
          {raw
            ? 'There is no such candidate.'
            : 'Open a candidate from a list or a search to see their record.'}
        </p>
      </section>
    );
  }
  return (
    <LoadBoundary>
      <Suspense
        fallback={
          <p className="text-slate-500" aria-busy="true">
            Loading the record…
          </p>
        }
      >
        <Record key={`${role}-${id}`} role={role} id={id} />
      </Suspense>
    </LoadBoundary>
  );
}

const SEX_LABELS: Record<string, string> = { female: 'Female', male: 'Male' };
const labelOf = (choices: readonly { code: string; label: string }[], code: string) =>
  choices.find((choice) => choice.code === code)?.label ?? code;

function Record({ role, id }: { role: Role; id: number }) {
  const dossier = useResource(`candidate-dossier-${role}-${id}`, () => loadCandidateDossier(role, id));
  const name = formatPersonName(dossier.identity);
  // Opened from a list's or a search's link, which is gone with the list: the keyboard's focus would be
  // left on the page's body. It goes to the candidate's name instead (where it is not taken already).
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) title.current?.focus();
  }, []);
  return (
    <article aria-labelledby="record-title" className="space-y-6">
      <header>
        <h1
          id="record-title"
          ref={title}
          tabIndex={-1}
          className="text-2xl font-semibold break-words focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {name}
        </h1>
        <p className="font-mono text-slate-700">{dossier.candidate_index}</p>
      </header>
      <Identity dossier={dossier} name={name} />
      <DocumentsSection documents={dossier.documents} owner={name} />
      <RegistrationSection registrations={dossier.registrations} />
      <PaymentsSection payments={dossier.payments} />
      <OffencesSection offences={dossier.offences} />
      <ResultsSection results={dossier.results} />
      <PrintSection dossier={dossier} />
      {role === 'admin' && <History entity="candidate" id={id} />}
    </article>
  );
}

function Identity({ dossier, name }: { dossier: CandidateDossier; name: string }) {
  const who = dossier.identity;
  const facts: [string, string][] = [
    ['Title', who.title ?? ''],
    ['Surname', who.last_name],
    ['Other names', [who.first_name, who.middle_name].filter(Boolean).join(' ')],
    ['Index number', dossier.candidate_index],
    ['Sex', SEX_LABELS[who.sex] ?? who.sex],
    ['Date of birth', formatDate(who.date_of_birth)],
    ['Nationality', who.nationality.name],
    ['Marital status', labelOf(MARITAL_STATUSES, who.marital_status)],
    ['Category', labelOf(CANDIDATE_CATEGORIES, who.category)],
    ['Training school', `${who.school.name} (${who.school.code})`],
    ['Course header', `${who.course_header.code} · ${who.course_header.title}`],
    ['Year', String(who.year)],
    ['Indexed', formatDateTime(who.indexed_at)],
  ];
  return (
    <Section title="Identity">
      <div className="flex flex-col gap-4 sm:flex-row">
        {dossier.photo ? (
          <img
            src={`/files/${dossier.photo}`}
            alt={`Photo of ${name}`}
            className="h-40 w-32 shrink-0 rounded-md object-cover ring-1 ring-slate-200"
          />
        ) : (
          <p className="flex h-40 w-32 shrink-0 items-center justify-center rounded-md bg-slate-100 p-2 text-center text-sm text-slate-600">
            No photo is stored.
          </p>
        )}
        <dl className="grid min-w-0 grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          {facts
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))}
        </dl>
      </div>
    </Section>
  );
}
