import { apiUrl } from '../../api/apiUrl';

/** Where a stored print photo (the small JPEG made at upload) is served from: /files/<key>. */
const photoUrl = (key: string) => apiUrl(`/files/${key.split('/').map(encodeURIComponent).join('/')}`);

/** A candidate's print photo, or a box saying there is none (the portal never invents one). */
export function PrintPhoto({
  photo,
  name,
  className,
}: {
  photo: string | null;
  name: string;
  className: string;
}) {
  if (!photo) {
    return (
      <span
        className={`flex items-center justify-center border border-dashed border-slate-400 text-center text-[8pt] text-slate-500 ${className}`}
      >
        No photo
      </span>
    );
  }
  return <img src={photoUrl(photo)} alt={`Photo of ${name}`} className={`object-cover ${className}`} />;
}
