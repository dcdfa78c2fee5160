import { count } from 'drizzle-orm';
import { NIGERIA_CODE } from '../../contract/constants';
import type { Database } from './client';
import { nationalities } from './schema';

/** ISO 3166-1 alpha-2: every country and territory. Names come from the runtime's ICU data. */
const ISO_COUNTRY_CODES = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW
BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ
FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ
IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH
MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL
PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD
TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
`
  .trim()
  .split(/\s+/);

/** Nigeria first, then every other country by its English name. */
function nationalityRows() {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const others = ISO_COUNTRY_CODES.filter((code) => code !== NIGERIA_CODE)
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return [{ code: NIGERIA_CODE, name: names.of(NIGERIA_CODE) ?? 'Nigeria' }, ...others].map(
    (row, position) => ({
      ...row,
      position,
    }),
  );
}

/**
 * Reference data every database needs, demo or not: written once, when its table is empty. Two portals
 * started together on one new database both find it empty: the write leaves the other's rows alone.
 */
export async function ensureReferenceData(db: Database): Promise<void> {
  const [{ total }] = await db.select({ total: count() }).from(nationalities);
  if (total === 0) await db.insert(nationalities).values(nationalityRows()).onConflictDoNothing();
}
