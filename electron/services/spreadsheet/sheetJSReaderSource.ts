/**
 * The reading process's program: SheetJS parses the bytes with the options it is sent and sends
 * back the plain data the reader needs (the sheet names, the date system, the asked sheet's dense
 * cells and merged ranges), or SheetJS's error message. One request, one answer.
 *
 * It runs as a Node child process (the CLI and the local bridge: `node -e`, with an IPC channel) or
 * as an Electron utility process (the desktop app, whose fuses forbid running its own binary as
 * Node: `process.parentPort`). The build writes it as `sheetJSReader.cjs` beside main for the latter.
 * This module imports nothing, so that the build configuration can read it.
 */
export const SHEETJS_READER_SOURCE = `'use strict';
const XLSX = require(process.env.DESK_SHEETJS_MODULE);
const port = process.parentPort;
function read(request) {
  const { bytes, options, sheet } = request;
  let reply;
  try {
    const workbook = XLSX.read(bytes, options);
    const names = workbook.SheetNames;
    const found = workbook.Sheets ? workbook.Sheets[sheet === undefined ? names[0] : sheet] : undefined;
    const props = workbook.Workbook && workbook.Workbook.WBProps;
    reply = {
      sheetNames: names,
      date1904: Boolean(props && props.date1904),
      cells: (found && found['!data']) || [],
      merges: (found && found['!merges']) || [],
    };
  } catch (error) {
    reply = { sheetJSError: error instanceof Error ? error.message : String(error) };
  }
  // The app ends a utility process once it has the answer; a child process ends when let go.
  if (port) port.postMessage(reply);
  else process.send(reply, () => process.disconnect());
}
if (port) port.once('message', (event) => read(event.data));
else process.once('message', read);
`;

/** The file the desktop app's build writes the program to, beside main's bundle. */
export const SHEETJS_READER_FILE = 'sheetJSReader.cjs';
