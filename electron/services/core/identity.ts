import { hostname, userInfo } from 'node:os';

/**
 * Who is at the keyboard, as the host knows it. Alone, the operating system's user name and the
 * computer's name; a team database will answer with its own login instead. Passed in at start-up
 * (PlatformAdapter.identity) so services never ask Electron or the OS themselves.
 */
export interface DeskIdentity {
  person(): string;
  computer(): string;
}

/** The operating system's user and computer names (the default for every host when alone). */
export function osIdentity(env: Record<string, string | undefined> = process.env): DeskIdentity {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the shell's own idea of the user.
    user = env.USER ?? env.USERNAME ?? 'unknown user';
  }
  const computer = hostname() || env.COMPUTERNAME || 'unknown computer';
  return { person: () => user, computer: () => computer };
}
