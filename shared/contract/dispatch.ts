import type { z } from 'zod';
import { DeskFailure, err, ok, type Result } from '../result';
import { channels, type ChannelInput, type ChannelName, type ChannelResponse } from './channels';
import { fieldName } from './fieldNames';

/** Context a transport passes to a handler (who asked, how to report progress). */
export interface CallContext {
  transport: 'ipc' | 'bridge' | 'cli' | 'test';
}

export type Handler<C extends ChannelName> = (
  input: ChannelInput<C>,
  ctx: CallContext,
) => Promise<ChannelResponse<C>> | ChannelResponse<C>;

/** The main-side implementation of every channel. */
export type Services = { [C in ChannelName]: Handler<C> };

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'The request was not understood.';
  const name = fieldName(first.path);
  const where = name ? `${name}: ` : '';
  return `${where}${first.message}`;
}

export function isChannelName(name: unknown): name is ChannelName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
}

/**
 * Parse the input, call the handler, parse the output. Never throws: every failure becomes
 * `{ ok: false, error }`. Unexpected exceptions are reported without their message, which might
 * carry a secret or a path; `onUnexpected` lets the caller log them.
 */
export async function dispatch(
  services: Services,
  channel: string,
  rawInput: unknown,
  ctx: CallContext,
  onUnexpected?: (channel: string, error: unknown) => void,
): Promise<Result<unknown>> {
  const input = checkInput(channel, rawInput);
  if (!input.ok) return input;
  return dispatchChecked(services, channel as ChannelName, input.value, ctx, onUnexpected);
}

/**
 * The input as the channel's schema takes it, or the refusal (an unknown channel, or input outside
 * the channel's shape and limits) before any handler runs. The bridge answers a refusal with 400.
 */
export function checkInput(channel: string, rawInput: unknown): Result<unknown> {
  if (!isChannelName(channel)) return err('UNKNOWN_CHANNEL', `There is no operation called "${channel}".`);
  const input = channels[channel].request.safeParse(rawInput ?? {});
  if (!input.success) {
    return err('INVALID_INPUT', describeIssues(input.error), {
      issues: input.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
    });
  }
  return ok(input.data);
}

/** Calls the handler with input checkInput accepted, and checks its answer (see dispatch). */
export async function dispatchChecked(
  services: Services,
  channel: ChannelName,
  checked: unknown,
  ctx: CallContext,
  onUnexpected?: (channel: string, error: unknown) => void,
): Promise<Result<unknown>> {
  const spec = channels[channel];
  const input = { data: checked };
  let output: unknown;
  try {
    const handler = services[channel] as (input: unknown, ctx: CallContext) => unknown;
    output = await handler(input.data, ctx);
  } catch (e) {
    if (e instanceof DeskFailure) return err(e.code, e.message, e.details);
    onUnexpected?.(channel, e);
    return err(
      'INTERNAL',
      `Something went wrong in "${channel}". Try again; if it keeps happening, see the log.`,
    );
  }
  const parsed = spec.response.safeParse(output);
  if (!parsed.success) {
    onUnexpected?.(channel, parsed.error);
    return err('BAD_RESPONSE', `"${channel}" produced an answer of the wrong shape.`);
  }
  return ok(parsed.data);
}
