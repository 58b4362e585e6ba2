import type { createModelMetaSchema, ModelMetaPage, ModelMetaView, updateModelMetaSchema } from '@switchboard/contracts';
import type { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ModelColumns, ModelCatalogueRepository, ModelSearch } from './model-catalogue.repository.ts';
import { ServedIndex, toModelView } from './model-catalogue-view.ts';
import { modelCatalogueMessages } from './model-catalogue.messages.ts';
import { sent } from './sent-field.ts';

type CreateInput = z.infer<typeof createModelMetaSchema>;
type UpdateInput = z.infer<typeof updateModelMetaSchema>;

/** new-api's model metadata (controller/model_meta.go): names unique among live rows, vendors that exist. */
export class ModelMetaService {
  private readonly repository: ModelCatalogueRepository;
  private readonly clock: Clock;

  constructor(dependencies: { repository: ModelCatalogueRepository; clock: Clock }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
  }

  async search(search: ModelSearch, page: { page: number; pageSize: number; offset: number }): Promise<ModelMetaPage> {
    const { rows, total } = await this.repository.searchModels(search, page.offset, page.pageSize);
    const served = new ServedIndex(await this.repository.servedAbilities());
    const counts = await this.repository.vendorModelCounts();
    return {
      items: rows.map((row) => toModelView(row, served)),
      total,
      page: page.page,
      page_size: page.pageSize,
      vendor_counts: Object.fromEntries([...counts].map(([vendor, count]) => [String(vendor), count])),
    };
  }

  async get(id: number): Promise<ModelMetaView> {
    const row = await this.repository.findModel(id);
    if (!row) throw new AppError(modelCatalogueMessages.modelNotFound);
    return toModelView(row, new ServedIndex(await this.repository.servedAbilities()));
  }

  async create(input: CreateInput): Promise<ModelMetaView> {
    const name = input.model_name?.trim() ?? '';
    if (!name) throw new AppError(modelCatalogueMessages.modelNameRequired);
    if (await this.repository.modelNameTaken(name, 0)) throw new AppError(modelCatalogueMessages.modelNameTaken);
    await this.checkVendor(input.vendor_id);
    const columns: ModelColumns = {
      model_name: name,
      description: input.description ?? '',
      icon: input.icon?.trim() ?? '',
      tags: normalizedTags(input.tags ?? ''),
      vendor_id: input.vendor_id ?? 0,
      endpoints: input.endpoints?.trim() ?? '',
      status: input.status ?? 1,
      sync_official: input.sync_official ?? 1,
      name_rule: input.name_rule ?? 0,
    };
    return this.get(await this.repository.insertModel(columns, this.clock.unixSeconds()));
  }

  /**
   * Changes the fields sent (new-api saves the whole row, but a partial edit must not blank the rest);
   * with `statusOnly`, only `status`, as new-api's `?status_only=true`.
   */
  async update(input: UpdateInput, statusOnly: boolean): Promise<ModelMetaView> {
    const columns: Partial<ModelColumns> = {};
    if (sent(input.status)) columns.status = input.status;
    if (!statusOnly) {
      if (sent(input.model_name)) {
        columns.model_name = input.model_name.trim();
        if (!columns.model_name) throw new AppError(modelCatalogueMessages.modelNameRequired);
        if (await this.repository.modelNameTaken(columns.model_name, input.id)) throw new AppError(modelCatalogueMessages.modelNameTaken);
      }
      await this.checkVendor(input.vendor_id);
      if (sent(input.description)) columns.description = input.description;
      if (sent(input.icon)) columns.icon = input.icon.trim();
      if (sent(input.tags)) columns.tags = normalizedTags(input.tags);
      if (sent(input.vendor_id)) columns.vendor_id = input.vendor_id;
      if (sent(input.endpoints)) columns.endpoints = input.endpoints.trim();
      if (sent(input.sync_official)) columns.sync_official = input.sync_official;
      if (sent(input.name_rule)) columns.name_rule = input.name_rule;
    }
    if (!(await this.repository.updateModel(input.id, columns, this.clock.unixSeconds()))) throw new AppError(modelCatalogueMessages.modelNotFound);
    return this.get(input.id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repository.softDeleteModel(id, new Date(this.clock.now())))) throw new AppError(modelCatalogueMessages.modelNotFound);
  }

  /** A model may name no vendor (0) or a live one, never one that is gone. */
  private async checkVendor(vendorId: number | null | undefined): Promise<void> {
    if (vendorId && !(await this.repository.findVendor(vendorId))) throw new AppError(modelCatalogueMessages.vendorNotFound);
  }
}

/** Tags as new-api stores them: comma-separated (ASCII or full-width \uFF0C), here trimmed and without blanks or repeats. */
export function normalizedTags(text: string): string {
  return [
    ...new Set(
      text
        // Escaped: one non-ASCII character would make V8 hold the whole server bundle's source at two bytes a character.
        .split(/[,\uFF0C]/)
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ].join(',');
}
