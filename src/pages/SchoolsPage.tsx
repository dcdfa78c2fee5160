import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { Page } from '../../contract/pagination';
import { SCHOOL_PATHS, type SchoolRow } from '../../contract/schools';
import { listMachine } from '../../machines/list.machine';
import { useActors } from '../app/actors';
import { pageFetcher } from '../api/lists';
import { Alert, Button, TextField } from '../ui/controls';
import { Pagination } from '../ui/Pagination';

/** Training schools with their admins; an admin can sign in as a school's admin from here. The rest of
 * the area (create, edit, status) comes with its own issue. */
export default function SchoolsPage() {
  const { impersonation } = useActors();
  const list = useActorRef(listMachine.provide({ actors: { fetchPage: pageFetcher(SCHOOL_PATHS.list) } }), {
    input: {},
  });
  const view = useSelector(list, (s) => ({
    loading: s.hasTag('loading'),
    data: s.context.data as Page<SchoolRow> | null,
    error: s.context.error,
    search: s.context.query.filters.search ?? '',
  }));
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    list.send({
      type: 'list.filter',
      filters: { search: String(new FormData(event.currentTarget).get('search') ?? '') },
    });
  };
  return (
    <section>
      <h1 className="text-2xl font-semibold">Training Schools</h1>
      <form role="search" onSubmit={search} className="mt-4 flex items-end gap-2">
        <div className="flex-1">
          <TextField label="Search by code or name" name="search" type="search" defaultValue={view.search} />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      {view.error && (
        <div className="mt-4">
          <Alert tone="error">
            {view.error}{' '}
            <Button variant="link" onClick={() => list.send({ type: 'list.refresh' })}>
              Try again
            </Button>
          </Alert>
        </div>
      )}
      {!view.data && !view.error && <p className="mt-4 text-slate-500">Loading…</p>}
      {view.data && (
        <div
          aria-busy={view.loading || undefined}
          className="mt-4 overflow-x-auto rounded-md bg-white ring-1 ring-slate-200"
        >
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  Code
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Name
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  State
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  School admins
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {view.data.items.length === 0 && (
                <tr>
                  <td colSpan={5} className="px-4 py-6 text-center text-slate-500">
                    No school matches this search.
                  </td>
                </tr>
              )}
              {view.data.items.map((school) => (
                <tr key={school.id}>
                  <td className="px-4 py-2 font-mono">{school.code}</td>
                  <td className="px-4 py-2">{school.name}</td>
                  <td className="px-4 py-2">{school.state}</td>
                  <td className="px-4 py-2">{school.status}</td>
                  <td className="px-4 py-2">
                    <ul className="space-y-1">
                      {school.admins.map((admin) => (
                        <li key={admin.id} className="flex items-center justify-between gap-3">
                          <span className={admin.active ? '' : 'text-slate-400 line-through'}>
                            {admin.email}
                          </span>
                          {admin.active && (
                            <Button
                              variant="link"
                              aria-label={`Log in as ${admin.name}`}
                              onClick={() =>
                                impersonation.send({
                                  type: 'impersonation.request',
                                  user: { id: admin.id, name: admin.name, email: admin.email },
                                })
                              }
                            >
                              Log in as
                            </Button>
                          )}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.data && (
        <Pagination
          data={view.data}
          busy={view.loading}
          onPage={(page) => list.send({ type: 'list.page', page })}
        />
      )}
    </section>
  );
}
