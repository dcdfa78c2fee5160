/** The API's address: same origin unless VITE_API_URL says otherwise (a module of its own, import-free). */
const API_URL = import.meta.env.VITE_API_URL ?? '';

export const apiUrl = (path: string) => API_URL + path;
