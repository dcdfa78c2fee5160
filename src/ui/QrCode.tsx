import type { Verification } from '../../contract/documents';

/**
 * A printed document's QR code, drawn from the path of its dark modules the server made (no QR
 * library in the browser), with its short code beside it for a reader without a camera.
 */
export function QrCode({
  verification,
  className = 'h-24 w-24',
}: {
  verification: Verification;
  className?: string;
}) {
  const { qr, size, code, url } = verification;
  return (
    <figure className="flex items-center gap-3 break-inside-avoid">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="img"
        aria-label={`QR code to check this paper at ${url}`}
        shapeRendering="crispEdges"
        className={`shrink-0 ${className}`}
        data-testid="qr-code"
      >
        <rect width={size} height={size} fill="#fff" />
        <path d={qr} fill="#000" />
      </svg>
      <figcaption className="text-xs leading-snug">
        <span className="block text-slate-600">Check this paper at</span>
        <span className="block break-all">{url.replace(/\/verify\/.*$/, '/verify')}</span>
        <span className="block text-slate-600">with the code</span>
        <span
          className="block font-mono text-sm font-semibold tracking-wider"
          data-testid="verification-code"
        >
          {code}
        </span>
      </figcaption>
    </figure>
  );
}
