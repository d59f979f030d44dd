import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../../shared/contract';
import { TeamBadge, approvalPolicyInWords } from './TeamBadge';

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

describe('approvalPolicyInWords', () => {
  it('says when an upload waits and whose computer sends it', () => {
    expect(approvalPolicyInWords({ approval: 'always', thresholds: {} })).toBe(
      'Every upload waits for an approver; once approved, the preparer’s computer sends it.',
    );
    expect(approvalPolicyInWords({ approval: 'always', thresholds: {}, sender: 'approver' })).toMatch(
      /; once approved, the approver’s computer sends it \(the preparer’s computer stores the exact file/,
    );
    expect(
      approvalPolicyInWords({ approval: 'above', thresholds: { EUR: 1_000_000 }, sender: 'approver' }),
    ).toMatch(
      /^An upload waits for an approver when its total in a currency is above .*10,000\.00.*the approver’s computer sends it/,
    );
    expect(approvalPolicyInWords({ approval: 'never', thresholds: {}, sender: 'approver' })).toBe(
      'Uploads go out without an approval; the preparer’s computer sends them.',
    );
  });
});
