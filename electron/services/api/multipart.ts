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
  /** The whole body at once (tests, small files). */
  bytes(): Buffer;
}

function quoteName(name: string): string {
  // Field names come from the service; a quote or line break would corrupt the form, so escape them as browsers do.
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function buildMultipart(
  fields: ReadonlyArray<readonly [string, string]>,
  file: { field: string; fileName: string; contentType: string; data: Uint8Array },
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
  const pieces = [prefix, file.data, suffix];
  const length = prefix.length + file.data.length + suffix.length;
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
