/** A place name as the indexes key it: letters and digits, diacritics dropped, lower case. */
export function placeKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** The English name of an ISO 3166-1 alpha-2 country code, or null for an unknown code. */
export function countryName(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code)) return null;
  try {
    const name = regionNames.of(code);
    return name && name !== code ? name : null;
  } catch {
    return null;
  }
}

let countriesByName: Map<string, string> | undefined;

/** The code of a country given by its English name ("Germany") or code ("de"), or null. */
export function countryCodeOf(text: string): string | null {
  const upper = text.trim().toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && countryName(upper)) {
    // "UK" is GB, as GeoNames writes it.
    return Intl.getCanonicalLocales(`und-${upper}`)[0]!.slice(4);
  }
  if (!countriesByName) {
    countriesByName = new Map();
    for (let first = 65; first <= 90; first++) {
      for (let second = 65; second <= 90; second++) {
        const code = String.fromCharCode(first, second);
        const name = countryName(code);
        // Only a code that is its own canonical form: not UK for GB, DD for DE, YU for RS.
        if (name && Intl.getCanonicalLocales(`und-${code}`)[0] === `und-${code}`) {
          countriesByName.set(placeKey(name), code);
        }
      }
    }
    // The names people write that differ from Intl's.
    countriesByName.set('usa', 'US');
    countriesByName.set('united states of america', 'US');
    countriesByName.set('uk', 'GB');
  }
  return countriesByName.get(placeKey(text)) ?? null;
}
