import type { Result } from '../result';
import type { ChannelName, ChannelRequest, ChannelResponse } from './channels';
import type { EventName, EventPayload } from './events';

/** What the renderer sees as `window.desk` (Electron) or the bridge client (browser mode). */
export type DeskApi = {
  [C in ChannelName]: (input?: ChannelRequest<C>) => Promise<Result<ChannelResponse<C>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};
