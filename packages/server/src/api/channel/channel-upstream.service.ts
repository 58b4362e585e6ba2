import { AppError } from '../../http/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import { fetchUpstreamBalance, fetchUpstreamModels, supportsBalance, UpstreamCallError } from './channel-upstream.ts';
import type { ChannelRepository, ChannelRow } from './channel.repository.ts';
import { channelMessages } from './channel.messages.ts';

const refreshConcurrency = 4;

/** What the console asks of the providers themselves: a channel's balance and its model list. */
export class ChannelUpstreamService {
  private readonly repository: ChannelRepository;
  private readonly clock: Clock;

  constructor(repository: ChannelRepository, clock: Clock) {
    this.repository = repository;
    this.clock = clock;
  }

  private async refresh(channel: ChannelRow): Promise<number> {
    const balance = await fetchUpstreamBalance({ type: channel.type, baseUrl: channel.base_url, key: channel.key }, this.clock.now());
    await this.repository.saveBalance(channel.id, balance, this.clock.unixSeconds());
    return balance;
  }

  async refreshBalance(id: number): Promise<number> {
    const channel = await this.repository.findById(id);
    if (!channel) throw new AppError(channelMessages.notFound);
    if (!supportsBalance(channel.type)) throw new AppError(channelMessages.balanceNotSupported);
    try {
      return await this.refresh(channel);
    } catch (error) {
      if (error instanceof UpstreamCallError) throw new AppError(channelMessages.balanceFailed, { params: { reason: error.message } });
      throw error;
    }
  }

  /** Every enabled channel whose provider exposes a balance, a few at a time; answers how many succeeded. */
  async refreshAllBalances(): Promise<{ updated: number; failed: number }> {
    const queue = (await this.repository.listEnabledWithKeys()).filter((channel) => supportsBalance(channel.type));
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
    return this.models({ type: channel.type, baseUrl: channel.base_url, key: channel.key });
  }

  async models(target: { type: number; baseUrl: string | null | undefined; key: string }): Promise<string[]> {
    if (!target.key.trim()) throw new AppError(channelMessages.fetchModelsKeyRequired);
    try {
      return await fetchUpstreamModels(target);
    } catch (error) {
      if (error instanceof UpstreamCallError) throw new AppError(channelMessages.fetchModelsFailed, { params: { reason: error.message } });
      throw error;
    }
  }
}
