import { AppError } from '../../../core/http/app-error.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { findChannelType } from '@switchboard/contracts';
import {
  AccountCallError,
  AccountQuestionUnanswerable,
  balanceSupported,
  fetchUpstreamBalance,
  listUpstreamModels,
  type ChannelAccount,
} from '../../relay/upstream-account.ts';
import type { ChannelRepository, ChannelRow } from './channel.repository.ts';
import { channelMessages } from './channel.messages.ts';

const refreshConcurrency = 4;

const accountOf = (channel: ChannelRow): ChannelAccount => ({ type: channel.type, baseUrl: channel.base_url, key: channel.key, other: channel.other });

/** Why the vendor cannot answer, in the administrator's words. */
function unanswerable(type: number, error: AccountQuestionUnanswerable): AppError {
  if (error.notRelayedReason) return new AppError(channelMessages.typeNotRelayed, { params: { reason: error.notRelayedReason } });
  return new AppError(channelMessages.modelListNotOffered, { params: { label: findChannelType(type)?.label ?? String(type) } });
}

/** What the console asks of the providers themselves: a channel's balance and its model list. */
export class ChannelUpstreamService {
  private readonly repository: ChannelRepository;
  private readonly clock: Clock;

  constructor(repository: ChannelRepository, clock: Clock) {
    this.repository = repository;
    this.clock = clock;
  }

  private async refresh(channel: ChannelRow): Promise<number> {
    const balance = await fetchUpstreamBalance(accountOf(channel), this.clock.now());
    await this.repository.saveBalance(channel.id, balance, this.clock.unixSeconds());
    return balance;
  }

  async refreshBalance(id: number): Promise<number> {
    const channel = await this.repository.findById(id);
    if (!channel) throw new AppError(channelMessages.notFound);
    if (!balanceSupported(channel.type)) throw new AppError(channelMessages.balanceNotSupported);
    try {
      return await this.refresh(channel);
    } catch (error) {
      if (error instanceof AccountCallError) throw new AppError(channelMessages.balanceFailed, { params: { reason: error.message } });
      throw error;
    }
  }

  /** Every enabled channel whose provider exposes a balance, a few at a time; answers how many succeeded. */
  async refreshAllBalances(): Promise<{ updated: number; failed: number }> {
    const queue = (await this.repository.listEnabledWithKeys()).filter((channel) => balanceSupported(channel.type));
    let updated = 0;
    let failed = 0;
    const worker = async () => {
      for (let channel = queue.shift(); channel; channel = queue.shift()) {
        try {
          await this.refresh(channel);
          updated += 1;
        } catch {
          failed += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: refreshConcurrency }, worker));
    return { updated, failed };
  }

  async modelsOfChannel(id: number): Promise<string[]> {
    const channel = await this.repository.findById(id);
    if (!channel) throw new AppError(channelMessages.notFound);
    return this.models(accountOf(channel));
  }

  async models(target: ChannelAccount): Promise<string[]> {
    if (!target.key.trim()) throw new AppError(channelMessages.fetchModelsKeyRequired);
    try {
      return await listUpstreamModels(target, this.clock.now());
    } catch (error) {
      if (error instanceof AccountCallError) throw new AppError(channelMessages.fetchModelsFailed, { params: { reason: error.message } });
      if (error instanceof AccountQuestionUnanswerable) throw unanswerable(target.type, error);
      throw error;
    }
  }
}
