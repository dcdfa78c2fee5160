import type { Photocard } from '../../../contract/documents';
import { QrCode } from '../../ui/QrCode';
import { PrintPhoto } from './photo';

/**
 * Photocards, two to a row on A4 (a card never splits across pages): each the candidate's photo, SURNAME
 * first, index number and the rest of what the hall checks, the papers, its own QR code and code, and a
 * box for the candidate's signature.
 */
export function CardsBlock({ cards, board }: { cards: Photocard[]; board: string }) {
  return (
    <ul className="mt-4 grid gap-3 sm:grid-cols-2 print:grid-cols-2 print:gap-[4mm]" aria-label="Photo cards">
      {cards.map((card) => (
        <li key={card.verification.code} className="photocard">
          <Card card={card} board={board} />
        </li>
      ))}
    </ul>
  );
}

function Card({ card, board }: { card: Photocard; board: string }) {
  const name = `${card.surname} ${card.otherNames}`.trim();
  const facts: [string, string][] = [
    ['Index number', card.candidateIndex],
    ['Sex', card.sex],
    ['Date of birth', card.dateOfBirth],
    ['Course header', card.courseHeader],
    ['Training school', card.school],
    ['Diet', card.diet],
  ];
  return (
    <article className="h-full border border-slate-500 p-2 text-[9pt]" aria-label={`Photo card of ${name}`}>
      <header className="mb-1 border-b border-slate-300 pb-1 text-center">
        <p className="text-[7.5pt] uppercase tracking-wide">{board}</p>
        <p className="font-semibold">Examination photo card</p>
      </header>
      <div className="flex gap-2">
        <PrintPhoto photo={card.photo} name={name} className="h-[30mm] w-[24mm] shrink-0" />
        <div className="min-w-0">
          <p className="text-[10.5pt] leading-tight">
            <span className="font-bold" data-testid="card-surname">
              {card.surname}
            </span>{' '}
            {card.otherNames}
          </p>
          <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-2 leading-snug">
            {facts.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd className={label === 'Index number' ? 'font-mono font-semibold' : ''}>{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
      <p className="mt-1">
        <span className="text-slate-600">Papers: </span>
        {card.papers.length > 0 ? card.papers.join(', ') : 'None entered'}
      </p>
      <div className="mt-2 flex items-end justify-between gap-2">
        <QrCode verification={card.verification} className="h-[22mm] w-[22mm]" />
        <div className="w-[32mm] shrink-0">
          <div className="h-[11mm] border border-slate-500" aria-hidden="true" />
          <p className="text-center text-[7.5pt] text-slate-600">Candidate&apos;s signature</p>
        </div>
      </div>
    </article>
  );
}
