import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../../shared/contract';
import { TeamBadge } from './TeamBadge';

/* The header's team badge and encryption: encrypted, plaintext here, plaintext across a network. */

const reachable = (over: Partial<Extract<TeamStatus, { mode: 'team' }>>): TeamStatus => ({
  mode: 'team',
  server: 'db.example.com:5432/desk',
  source: 'settings',
  reachable: true,
  login: 'alice',
  roles: ['desk_preparer'],
  problem: null,
  rule: null,
  local: false,
  encryption: { encrypted: true, protocol: 'TLSv1.3' },
  ...over,
});

const render = (status: TeamStatus) => renderToStaticMarkup(<TeamBadge status={status} />);

describe('TeamBadge', () => {
  it('says the connection is encrypted, with the protocol', () => {
    const html = render(reachable({}));
    expect(html).toContain('Team: db.example.com:5432/desk · alice · encrypted (TLSv1.3)');
    expect(html).toContain('data-encrypted="true"');
    expect(html).toContain('MuiChip-outlined');
  });

  it('warns of plaintext to a server across a network, in amber', () => {
    const html = render(reachable({ encryption: { encrypted: false, protocol: null } }));
    expect(html).toContain('Team: db.example.com:5432/desk · alice · not encrypted');
    expect(html).toContain('data-encrypted="false"');
    expect(html).toContain('MuiChip-filled');
  });

  it('says nothing of plaintext to a server on this computer', () => {
    const html = render(
      reachable({
        server: '127.0.0.1:5432/desk',
        local: true,
        encryption: { encrypted: false, protocol: null },
      }),
    );
    expect(html).toContain('Team: 127.0.0.1:5432/desk · alice<');
    expect(html).not.toContain('· not encrypted');
    expect(html).toContain('The connection is not encrypted (the server is on this computer).');
    expect(html).toContain('MuiChip-outlined');
  });
});
