import type { createPrefillGroupSchema, PrefillGroupView, updatePrefillGroupSchema } from '@switchboard/contracts';
import type { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { toPrefillGroupView } from './prefill-group-view.ts';
import { prefillGroupMessages } from './prefill-group.messages.ts';
import type { PrefillGroupColumns, PrefillGroupRepository } from './prefill-group.repository.ts';

type CreateInput = z.infer<typeof createPrefillGroupSchema>;
type UpdateInput = z.infer<typeof updatePrefillGroupSchema>;

/** new-api's prefill groups (controller/prefill_group.go): names unique among live groups. */
export class PrefillGroupService {
  private readonly repository: PrefillGroupRepository;
  private readonly clock: Clock;

  constructor(dependencies: { repository: PrefillGroupRepository; clock: Clock }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
  }

  async list(type: string): Promise<PrefillGroupView[]> {
    return (await this.repository.list(type)).map(toPrefillGroupView);
  }

  async create(input: CreateInput): Promise<PrefillGroupView> {
    const name = input.name?.trim() ?? '';
    const type = input.type?.trim() ?? '';
    if (!name || !type) throw new AppError(prefillGroupMessages.nameAndTypeRequired);
    if (await this.repository.nameTaken(name, 0)) throw new AppError(prefillGroupMessages.nameTaken);
    const columns: PrefillGroupColumns = { name, type, items: JSON.stringify(input.items ?? []), description: input.description ?? '' };
    return this.view(await this.repository.insert(columns, this.clock.unixSeconds()));
  }

  /** Changes the fields sent; new-api saves the whole row, but a partial edit must not blank the rest. */
  async update(input: UpdateInput): Promise<PrefillGroupView> {
    const columns: Partial<PrefillGroupColumns> = {};
    if (input.name !== undefined && input.name !== null) columns.name = input.name.trim();
    if (input.type !== undefined && input.type !== null) columns.type = input.type.trim();
    if (columns.name === '' || columns.type === '') throw new AppError(prefillGroupMessages.nameAndTypeRequired);
    if (input.items !== undefined && input.items !== null) columns.items = JSON.stringify(input.items);
    if (input.description !== undefined && input.description !== null) columns.description = input.description;
    if (columns.name !== undefined && (await this.repository.nameTaken(columns.name, input.id))) throw new AppError(prefillGroupMessages.nameTaken);
    if (!(await this.repository.update(input.id, columns, this.clock.unixSeconds()))) throw new AppError(prefillGroupMessages.notFound);
    return this.view(input.id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repository.softDelete(id, new Date(this.clock.now())))) throw new AppError(prefillGroupMessages.notFound);
  }

  private async view(id: number): Promise<PrefillGroupView> {
    const row = await this.repository.find(id);
    if (!row) throw new AppError(prefillGroupMessages.notFound);
    return toPrefillGroupView(row);
  }
}
