import type { DocumentBlock, PrintedDocument } from '../../../contract/documents';
import { formatDateTime } from '../../../contract/format';
import { QrCode } from '../../ui/QrCode';
import { CardsBlock } from './CardsBlock';
import { ChartBlock } from './ChartBlock';
import { TableBlock } from './TableBlock';
import { FieldsBlock, NoticeBlock, SignaturesBlock, TextBlock } from './TextBlocks';
import './print.css';

/**
 * A document as the server built it, drawn for the browser to print on A4: the board's name, the title,
 * the heading lines, when and by whom it was printed, its QR code and code, then its blocks in order.
 * Nothing here decides what the paper says.
 */
export function PrintedDocumentView({ document: doc }: { document: PrintedDocument }) {
  return (
    <article className="printed-document" aria-labelledby="document-title">
      <header className="flex flex-wrap items-start justify-between gap-4 border-b-2 border-slate-800 pb-3">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-wide">{doc.board}</p>
          <h1 id="document-title" className="mt-1 text-xl font-bold print:text-[14pt]">
            {doc.title}
          </h1>
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 text-sm print:text-[9pt]">
            {doc.heading.map((line) => (
              <div key={line.label} className="contents">
                <dt className="text-slate-600">{line.label}</dt>
                <dd>{line.value}</dd>
              </div>
            ))}
            <dt className="text-slate-600">Printed</dt>
            <dd data-testid="printed-at">
              {formatDateTime(doc.printedAt)} by {doc.printedBy}
            </dd>
          </dl>
        </div>
        <QrCode verification={doc.verification} />
      </header>
      {doc.blocks.map((block, i) => (
        <Block key={i} block={block} board={doc.board} />
      ))}
    </article>
  );
}

function Block({ block, board }: { block: DocumentBlock; board: string }) {
  switch (block.kind) {
    case 'table':
      return <TableBlock block={block} />;
    case 'fields':
      return <FieldsBlock block={block} />;
    case 'chart':
      return <ChartBlock block={block} />;
    case 'cards':
      return <CardsBlock cards={block.cards} board={board} />;
    case 'notice':
      return <NoticeBlock block={block} />;
    case 'text':
      return <TextBlock block={block} />;
    case 'signatures':
      return <SignaturesBlock block={block} />;
  }
}
