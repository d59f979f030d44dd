/*
 * A refused field named as the screen labels it, not by its path in the request: "Program domain:
 * Enter a domain such as giving.example.com", never "remote.addresses.programDomain: …".
 */

/** Request paths (joined with dots) and the label the Settings page gives each. */
const LABELS: Record<string, string> = {
  'remote.addresses.baseUrl': 'Service address',
  'remote.addresses.tokenUrl': 'Token address',
  'remote.addresses.programDomain': 'Program domain',
  'remote.clientId': 'Client id',
  'remote.clientSecret': 'Client secret',
  'teamDatabase.address': 'Team database address',
  'teamDatabase.password': 'Team database password',
  environment: 'Environment',
};

/** The field's label when the screen has one; else its path, so nothing is hidden. */
export function fieldName(path: ReadonlyArray<PropertyKey>): string | null {
  if (path.length === 0) return null;
  const key = path.map(String).join('.');
  return LABELS[key] ?? key;
}
