import { randomBytes } from 'node:crypto';

/**
 * A multipart/form-data body built by hand, because the upload host needs the signed fields under
 * their own names in the given order with `file` last, and a Content-Length (signed-form hosts
 * refuse chunked bodies), while we still want to report bytes as they leave.
 */
export interface MultipartBody {
  contentType: string;
  length: number;
  /** The body in pieces of at most `chunkBytes`; `onBytes` hears the running total as each piece is taken. */
  stream(onBytes?: (sent: number, total: number) => void, chunkBytes?: number): ReadableStream<Uint8Array>;
  /** The whole body at once (tests, small files); not for a body whose file is read from disk. */
  bytes(): Buffer;
}

/**
 * A file sent from where it lies, a piece at a time: its size is known beforehand (the body's
 * Content-Length), and `read` gives its bytes anew for each try. A `read` that gives another number
 * of bytes than `size`, or throws (a hash that no longer matches, say), fails the body before its
 * last boundary, so the host never receives a complete form.
 */
export interface FileSource {
  size: number;
  read(): AsyncIterable<Uint8Array>;
}

function isFileSource(data: Uint8Array | FileSource): data is FileSource {
  return !(data instanceof Uint8Array);
}

function quoteName(name: string): string {
  // Field names come from the service; a quote or line break would corrupt the form, so escape them as browsers do.
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function buildMultipart(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { field: string; fileName: string; contentType: string; data: Uint8Array | FileSource },
): MultipartBody {
  const boundary = `----DonationDesk${randomBytes(12).toString('hex')}`;
  const head: Buffer[] = [];
  for (const [name, value] of fields) {
    head.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoteName(name)}"\r\n\r\n${value}\r\n`,
        'utf8',
      ),
    );
  }
  head.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoteName(file.field)}"; filename="${quoteName(file.fileName)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      'utf8',
    ),
  );
  const prefix = Buffer.concat(head);
  const suffix = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  const data = file.data;
  if (isFileSource(data)) return fileBody(boundary, prefix, data, suffix);
  const pieces = [prefix, data, suffix];
  const length = prefix.length + data.length + suffix.length;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    bytes: () => Buffer.concat(pieces),
    stream(onBytes, chunkBytes = 256 * 1024) {
      let piece = 0;
      let offset = 0;
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          while (piece < pieces.length && offset >= (pieces[piece] as Uint8Array).length) {
            piece++;
            offset = 0;
          }
          if (piece >= pieces.length) {
            controller.close();
            return;
          }
          const current = pieces[piece] as Uint8Array;
          const chunk = current.subarray(offset, offset + chunkBytes);
          offset += chunk.length;
          sent += chunk.length;
          controller.enqueue(chunk);
          onBytes?.(sent, length);
        },
      });
    },
  };
}

/** The body of a file read from disk as it is sent: the file is never whole in memory. */
function fileBody(boundary: string, prefix: Buffer, file: FileSource, suffix: Buffer): MultipartBody {
  const length = prefix.length + file.size + suffix.length;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    bytes() {
      throw new Error('A body read from disk is only ever streamed.');
    },
    stream(onBytes, chunkBytes = 256 * 1024) {
      async function* pieces(): AsyncGenerator<Uint8Array> {
        yield prefix;
        let read = 0;
        for await (const chunk of file.read()) {
          read += chunk.length;
          if (read > file.size) throw new Error('The file grew while it was being sent.');
          for (let at = 0; at < chunk.length; at += chunkBytes) yield chunk.subarray(at, at + chunkBytes);
        }
        if (read !== file.size) throw new Error('The file shrank while it was being sent.');
        yield suffix;
      }
      const source = pieces();
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await source.next();
            if (next.done) {
              controller.close();
              return;
            }
            sent += next.value.length;
            controller.enqueue(next.value);
            onBytes?.(sent, length);
          } catch (e) {
            controller.error(e);
          }
        },
        async cancel() {
          await source.return(undefined);
        },
      });
    },
  };
}
