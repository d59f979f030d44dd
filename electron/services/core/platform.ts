import type { DeskIdentity } from './identity';
import type { LaunchApartProcess } from './apartProcess';

/**
 * What only the host (Electron, the local bridge, the CLI) can provide. Services receive it at
 * start-up and never import `electron` themselves, so the same code runs in every mode and in tests.
 */
export interface SecretBox {
  /** Name of the OS backend, e.g. `gnome_libsecret`, `kwallet`, `basic_text`, `dpapi`, `keychain`. */
  backend(): string;
  /** True when secrets can be encrypted with an OS-protected key (never for `basic_text`). */
  isStrong(): boolean;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export interface PlatformAdapter {
  mode: 'electron' | 'browser' | 'cli';
  /** Where settings, workspaces and the ledger live. */
  dataDir: string;
  appVersion: string;
  /** Folder holding the shipped sample spreadsheet and icons. */
  assetsDir: string;
  /** Encryption for secrets at rest; null where the host has none (browser mode, CLI). */
  secretBox: SecretBox | null;
  /** Opens an address in the system browser. Only called after the allowlist check. */
  openExternal(url: string): Promise<void>;
  /** A desktop notification, where the host has them. */
  notify?(title: string, body: string): void;
  /**
   * Who is using the app, for the audit trail: the operating system's user and computer names
   * (osIdentity) unless the host knows better. Read when each entry is written.
   */
  identity?: DeskIdentity;
  /**
   * Asks the person where to save a file (the desktop app's save dialog); null when they cancel.
   * Absent where the host has no such dialog (browser mode, CLI): a file in the data folder is used.
   */
  chooseSaveFile?(options: { title: string; defaultName: string; extension: string }): Promise<string | null>;
  /**
   * Starts the programs that run in a process of their own: the reader of .xls and .ods files and
   * the Offline sandbox. The desktop app must use Electron utility processes (its fuses forbid
   * running its own binary as Node). Absent (tests from the sources): the reader runs as a Node
   * child process and the Offline sandbox in this process.
   */
  launchApartProcess?: LaunchApartProcess;
  /** Environment variables to read credentials from (defaults to none). */
  env?: Record<string, string | undefined>;
}
