import { useLocation, useSearch } from 'wouter';
import { useSession } from '../../app/actors';
import { SelectField } from '../../ui/controls';
import { PageTabs } from '../../ui/PageTabs';
import { useDietChoices } from '../diets/DietField';

export const useUserId = () => useSession((s) => s.context.user?.id ?? 0);

export function ScoreTabs({ current }: { current: 'sheets' | 'papers' | 'results' }) {
  return (
    <PageTabs
      label="Score entry"
      tabs={[
        { href: '/score', label: 'Score sheets', current: current === 'sheets' },
        { href: '/score/papers', label: 'Papers and result rules', current: current === 'papers' },
        { href: '/score/results', label: 'Results', current: current === 'results' },
      ]}
    />
  );
}

/** The diet a page shows, from the address bar (`?diet=`), or the current one. */
export function useDiet(): [string, (code: string) => void] {
  const search = new URLSearchParams(useSearch());
  const diets = useDietChoices('admin');
  const [location, navigate] = useLocation();
  const chosen = search.get('diet') ?? diets.find((d) => d.current)?.code ?? diets[0]?.code ?? '';
  return [chosen, (code) => navigate(`${location}?diet=${encodeURIComponent(code)}`)];
}

export function DietPicker({ diet, onChange }: { diet: string; onChange: (code: string) => void }) {
  const diets = useDietChoices('admin');
  return (
    <div className="w-72 max-w-full">
      <SelectField
        label="Diet"
        name="diet"
        id="score-diet"
        value={diet}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {diets.map((d) => (
          <option key={d.code} value={d.code}>
            {d.name} ({d.code}){d.current ? ', current' : ''}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
