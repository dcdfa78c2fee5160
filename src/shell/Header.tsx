import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { Link } from 'wouter';
import { badgeText } from '../../contract/constants';
import { BROADCAST_LINKS } from '../../contract/navigation';
import { useActors, useAppActor, useSession } from '../app/actors';
import { ChangePasswordDialog, EditProfileDialog, ProfilePhoto, ViewProfileDialog } from './dialogs';

const menuItem = 'block w-full px-4 py-2 text-left text-sm data-[focus]:bg-slate-100';
const menuPanel =
  'z-40 mt-2 w-52 rounded-md bg-white py-1 shadow-lg ring-1 ring-slate-200 focus:outline-none';

function BroadcastMenu() {
  return (
    <Menu as="div" className="relative">
      <MenuButton className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
        Broadcast
      </MenuButton>
      <MenuItems anchor="bottom end" className={menuPanel}>
        {BROADCAST_LINKS.map((link) => (
          <MenuItem key={link.path}>
            <Link href={link.path} className={menuItem}>
              {link.label}
            </Link>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}

function NotificationBell() {
  const unread = useAppActor('unreadCount', (s) => s.context.unread);
  const badge = badgeText(unread);
  return (
    <Link
      href="/notifications"
      className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
      aria-label={badge ? `Notifications, ${badge} unread` : 'Notifications'}
    >
      <svg
        viewBox="0 0 24 24"
        className="h-6 w-6"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M18 8a6 6 0 10-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 01-3.4 0" strokeLinecap="round" />
      </svg>
      {badge && (
        <span
          data-testid="bell-badge"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-semibold text-white"
        >
          {badge}
        </span>
      )}
    </Link>
  );
}

export function Header({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { app, session, passwordForm, impersonation } = useActors();
  const user = useSession((s) => s.context.user);
  const impersonating = useAppActor('impersonation', (s) => s.hasTag('impersonating'));
  if (!user) return null;
  const isAdmin = user.user_role === 'admin';
  return (
    <header className="flex h-14 print:hidden items-center justify-between border-b border-slate-200 bg-white px-4">
      <button
        type="button"
        onClick={onOpenMenu}
        className="rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
        aria-label="Open the menu"
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true">
          <path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <div className="ml-auto flex items-center gap-2">
        {isAdmin && <BroadcastMenu />}
        {isAdmin && <NotificationBell />}
        <Menu as="div" className="relative">
          <MenuButton className="flex items-center gap-2 rounded-full p-1 pr-3 hover:bg-slate-100">
            <ProfilePhoto user={user} className="h-8 w-8" />
            <span className="hidden text-sm font-medium sm:inline">{user.name}</span>
            <span className="sr-only">Open the profile menu</span>
          </MenuButton>
          <MenuItems anchor="bottom end" className={menuPanel}>
            <MenuItem>
              <button
                type="button"
                className={menuItem}
                onClick={() => app.send({ type: 'app.profileCard.open' })}
              >
                Your profile
              </button>
            </MenuItem>
            <MenuItem>
              <button
                type="button"
                className={menuItem}
                onClick={() => passwordForm.send({ type: 'form.open' })}
              >
                Change password
              </button>
            </MenuItem>
            <MenuItem>
              <button
                type="button"
                className={menuItem}
                onClick={() => session.send({ type: 'session.signOut' })}
              >
                Log out
              </button>
            </MenuItem>
            {impersonating && (
              <MenuItem>
                <button
                  type="button"
                  className={menuItem}
                  onClick={() => impersonation.send({ type: 'impersonation.switchBack' })}
                >
                  Switch To Admin
                </button>
              </MenuItem>
            )}
          </MenuItems>
        </Menu>
      </div>
      <ViewProfileDialog />
      <EditProfileDialog />
      <ChangePasswordDialog />
    </header>
  );
}
