/** The broadcast pages' loads, read again after a change (src/app/resource.tsx). */
export const SENT_KEY = 'broadcasts.sent';
export const broadcastKey = (id: number) => `broadcasts.detail.${id}`;
export const RECEIVED_KEY = 'broadcasts.received';
export const receivedKey = (id: number) => `broadcasts.open.${id}`;
