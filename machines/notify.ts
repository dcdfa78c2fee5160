/** What a machine emits for the toast area; the app turns it into a toast (spec section 2). */
export interface NotifyEmitted {
  type: 'notify';
  tone: 'success' | 'error';
  message: string;
}
