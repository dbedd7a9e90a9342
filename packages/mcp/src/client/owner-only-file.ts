import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What a store kept in an owner-only file takes besides its path. */
export interface OwnerOnlyFileOptions {
  /**
   * The user id the file and its directory must belong to. Default: this process's (`process.getuid()`); on a
   * platform without user ids (Windows) ownership is not checked. A test sets it to check the refusal as any user.
   */
  readonly expectedOwner?: number;
}

/** How a store names its file and reports a failure (its own error class). */
export interface OwnerOnlyFileHooks {
  /** The file's kind in messages: `token file`, `pin file`. */
  readonly label: string;
  /** The store's error for `message` (the file's path is known to the caller). */
  readonly error: (message: string, options?: { cause?: unknown }) => Error;
  /** Takes the file's text once, on the first read (not called when there is no file yet). */
  readonly restore: (text: string) => void;
  /** The whole file's text, written after every change. */
  readonly serialize: () => string;
}

/** Refuses to follow a symbolic link at the last component (0 where the platform has no such flag). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The state of a file-backed store, in one file only its owner may read: read once, then rewritten whole on each
 * change, in order. Created with mode 0600 (its directory 0700), written as a temporary file with an unpredictable
 * name, created exclusively in the same directory without following a symbolic link, then renamed over the file, so
 * a crash never leaves half a file. Refused when the file or its directory belongs to another user, when the file is
 * readable or writable by anyone but its owner, when the directory is writable by anyone but its owner, or when the
 * path is a symbolic link. No error or cause quotes the file's contents. One process at a time: a second process
 * writing the same file would overwrite the first one's changes.
 */
export class OwnerOnlyFile {
  private readonly owner: number | undefined;
  private loading?: Promise<void>;
  private writing: Promise<void> = Promise.resolve();
  /** The errors this file made (passed through `wrapped` unchanged). */
  private readonly ownErrors = new WeakSet<Error>();

  constructor(
    readonly path: string,
    private readonly hooks: OwnerOnlyFileHooks,
    options: OwnerOnlyFileOptions = {},
  ) {
    this.owner = options.expectedOwner ?? process.getuid?.();
  }

  /** Reads the file once (later calls wait for the same read). */
  load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  /** Applies a change to the loaded state, then writes the file; changes are applied and written in call order. */
  change(apply: () => void | Promise<void>): Promise<void> {
    const next = this.writing.then(async () => {
      await this.load();
      await apply();
      await this.write(this.hooks.serialize());
    });
    this.writing = next.catch(() => undefined);
    return next;
  }

  /** A refusal: `what` is the rest of the sentence after "The <label> <path>", with its full stop. */
  refused(what: string): Error {
    return this.error(`The ${this.hooks.label} ${this.path} ${what}`);
  }

  private error(message: string, options?: { cause?: unknown }): Error {
    const error = this.hooks.error(message, options);
    this.ownErrors.add(error);
    return error;
  }

  private async read(): Promise<void> {
    let text: string;
    try {
      await this.checkDirectory();
      // Opened without following a link; the checks are made on the open file itself (no swap between check and read).
      const handle = await open(this.path, constants.O_RDONLY | NO_FOLLOW);
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw this.refused('is not a regular file.');
        this.checkOwner(info, `The ${this.hooks.label} ${this.path}`, `chown $(id -u) ${this.path}`);
        if ((info.mode & 0o077) !== 0)
          throw this.refused(
            `has mode ${(info.mode & 0o777).toString(8)}: others can read or change it. Fix: chmod 600 ${this.path}.`,
          );
        text = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw this.wrapped(error, 'cannot be read');
    }
    this.hooks.restore(text);
  }

  private async write(text: string): Promise<void> {
    const directory = dirname(this.path);
    // Unpredictable, in the target's directory (a rename within one file system), created only if it does not exist.
    const temporary = join(directory, `.${basename(this.path)}.${randomBytes(16).toString('hex')}.tmp`);
    let created = false;
    try {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      await this.checkDirectory();
      const handle = await open(
        temporary,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
        0o600,
      );
      created = true;
      try {
        await handle.chmod(0o600);
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
      created = false;
    } catch (error) {
      if (created) await unlink(temporary).catch(() => undefined);
      throw this.wrapped(error, 'cannot be written');
    }
  }

  /** The file's directory: a real directory of the expected owner that no one else can write to. */
  private async checkDirectory(): Promise<void> {
    const directory = dirname(this.path);
    const info = await lstat(directory);
    if (!info.isDirectory()) throw this.refused(`is in ${directory}, which is not a directory (a symbolic link?).`);
    this.checkOwner(
      info,
      `The directory ${directory} of the ${this.hooks.label} ${this.path}`,
      `chown $(id -u) ${directory}`,
    );
    if ((info.mode & 0o022) !== 0)
      throw this.refused(
        `is in ${directory}, which others can write to (mode ${(info.mode & 0o777).toString(8)}). Fix: chmod 700 ${directory}.`,
      );
  }

  private checkOwner(info: Stats, what: string, fix: string): void {
    if (this.owner === undefined || info.uid === this.owner) return;
    throw this.error(
      `${what} belongs to user ${info.uid}, not to this user (${this.owner}). Fix: ${fix}, or use another path.`,
    );
  }

  /** A failure as the store's error; a file-system error is its cause (it names paths, never the file's contents). */
  private wrapped(error: unknown, what: string): Error {
    if (error instanceof Error && this.ownErrors.has(error)) return error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK')
      return this.refused("is a symbolic link, refused: a link could point at another user's file.");
    return this.error(`The ${this.hooks.label} ${this.path} ${what}${code ? ` (${code})` : ''}.`, {
      cause: error,
    });
  }
}
