import { Suspense } from 'react';
import { useLocation } from 'wouter';
import { BOARD_NAME, DOCUMENT_MESSAGES, type VerifiedDocument } from '../../contract/documents';
import { formatDateTime } from '../../contract/format';
import { VERIFY_PATH } from '../../contract/paths';
import { verifyCode } from '../api/verification';
import { LoadBoundary, useResource } from '../app/resource';

/**
 * /verify/<code>: anyone holding a printed document (a photocard at the hall door, a receipt) checks it
 * with a phone, without signing in. It says whether the paper is genuine, what it certified, when and
 * by whom, and what has changed since. /verify alone is the form to type a code by hand. Kept small: it
 * is opened from a QR code, often on a slow link.
 */
export default function VerifyPage({ code }: { code?: string }) {
  return (
    <main className="mx-auto max-w-xl px-4 py-6 text-lg">
      <p className="text-sm font-semibold uppercase tracking-wide text-slate-600">{BOARD_NAME}</p>
      <h1 className="mt-1 text-2xl font-bold">Check a printed document</h1>
      {code && (
        <LoadBoundary>
          <Suspense
            fallback={
              <p className="mt-6 text-slate-600" role="status">
                Checking the code…
              </p>
            }
          >
            <Answer code={code} />
          </Suspense>
        </LoadBoundary>
      )}
      <CodeForm code={code} />
    </main>
  );
}

function Answer({ code }: { code: string }) {
  const verified = useResource(`verify:${code}`, () => verifyCode(code));
  if (!verified) {
    return (
      <p
        role="alert"
        className="mt-6 rounded-lg border-2 border-red-600 bg-red-50 p-4 font-semibold text-red-900"
      >
        {DOCUMENT_MESSAGES.codeUnknown}
      </p>
    );
  }
  return <Verified verified={verified} code={code} />;
}

function Verified({ verified, code }: { verified: VerifiedDocument; code: string }) {
  const genuine = verified.status === 'genuine';
  // A fact the paper's heading already says (a receipt's training school) is said once.
  const certifiedBesides = verified.certified.filter(
    (fact) => !verified.heading.some((line) => line.label === fact.label && line.value === fact.value),
  );
  return (
    <div className="mt-6 space-y-5">
      <section
        role="status"
        className={`rounded-lg border-2 p-4 ${genuine ? 'border-green-700 bg-green-50 text-green-900' : 'border-amber-600 bg-amber-50 text-amber-950'}`}
      >
        <p className="text-3xl font-bold" data-testid="verification-status">
          {genuine ? '✓ Genuine' : '! Changed since printed'}
        </p>
        <p className="mt-2 text-base">{genuine ? DOCUMENT_MESSAGES.genuine : DOCUMENT_MESSAGES.changed}</p>
      </section>
      {verified.changes.length > 0 && (
        <section aria-labelledby="changes">
          <h2 id="changes" className="text-xl font-semibold">
            What has changed
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-6">
            {verified.changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="certified">
        <h2 id="certified" className="text-xl font-semibold">
          {verified.title}
        </h2>
        <dl className="mt-2 space-y-2">
          {[...verified.heading, ...certifiedBesides].map((line, i) => (
            <div key={i}>
              <dt className="text-sm text-slate-600">{line.label}</dt>
              <dd className="break-words font-medium">{line.value}</dd>
            </div>
          ))}
          <div>
            <dt className="text-sm text-slate-600">Printed</dt>
            <dd className="font-medium">
              {formatDateTime(verified.printedAt)} by {verified.printedBy}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">Code</dt>
            <dd className="break-all font-mono font-medium">{code}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

/** A code typed by hand (from under the QR code): opens its check. */
function CodeForm({ code }: { code?: string }) {
  const [, navigate] = useLocation();
  return (
    <form
      className="mt-8 border-t border-slate-200 pt-6"
      onSubmit={(event) => {
        event.preventDefault();
        const typed = new FormData(event.currentTarget).get('code');
        const clean = typeof typed === 'string' ? typed.replace(/\s+/g, '') : '';
        if (clean) navigate(`${VERIFY_PATH}/${encodeURIComponent(clean)}`);
      }}
    >
      <label htmlFor="verify-code" className="block font-medium">
        {code ? 'Check another code' : 'The code printed beside the QR code'}
      </label>
      <div className="mt-2 flex flex-wrap gap-2">
        <input
          id="verify-code"
          name="code"
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          className="min-w-0 flex-1 rounded-md border border-slate-400 px-3 py-3 font-mono text-lg"
        />
        <button
          type="submit"
          className="rounded-md bg-brand-700 px-6 py-3 text-lg font-semibold text-white hover:bg-brand-800"
        >
          Check
        </button>
      </div>
    </form>
  );
}
