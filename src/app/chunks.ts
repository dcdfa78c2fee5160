/**
 * The signed-in part of the app (shell, dialogs, toasts): its own chunk, so /login does not load it.
 * Loaded when first needed, or ahead of time once the password is sent, while the user fetches the
 * code from their mail: on a slow link the shell is then already there when the code is accepted.
 */
export const loadShell = () => import('../shell/Shell');
