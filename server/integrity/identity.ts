/**
 * A person's name and date of birth as the duplicate finder compares them: the first and last names'
 * words, without case or diacritics (Adébáyọ̀ is adebayo), in alphabetical order (so a first and last
 * name swapped between two forms still match), with the date of birth. Middle names and titles are left
 * out: one form often has a middle name the other lacks.
 */
export function identityKey(firstName: string, lastName: string, dateOfBirth: string): string {
  const words = `${firstName} ${lastName}`
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .sort();
  return `${words.join(' ')}|${dateOfBirth}`;
}
