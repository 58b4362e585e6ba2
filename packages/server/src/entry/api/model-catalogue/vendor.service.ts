import type { createVendorSchema, Page, updateVendorSchema, VendorView } from '@switchboard/contracts';
import type { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ModelCatalogueRepository, VendorColumns } from './model-catalogue.repository.ts';
import { toVendorView } from './model-catalogue-view.ts';
import { modelCatalogueMessages } from './model-catalogue.messages.ts';
import { sent } from './sent-field.ts';

type CreateInput = z.infer<typeof createVendorSchema>;
type UpdateInput = z.infer<typeof updateVendorSchema>;

/** new-api's vendors (controller/vendor_meta.go): names unique among live rows, each with its model count. */
export class VendorService {
  private readonly repository: ModelCatalogueRepository;
  private readonly clock: Clock;

  constructor(dependencies: { repository: ModelCatalogueRepository; clock: Clock }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
  }

  async search(keyword: string, page: { page: number; pageSize: number; offset: number }): Promise<Page<VendorView>> {
    const { rows, total } = await this.repository.searchVendors(keyword, page.offset, page.pageSize);
    const counts = await this.repository.vendorModelCounts();
    return { items: rows.map((row) => toVendorView(row, counts)), total, page: page.page, page_size: page.pageSize };
  }

  async get(id: number): Promise<VendorView> {
    const row = await this.repository.findVendor(id);
    if (!row) throw new AppError(modelCatalogueMessages.vendorNotFound);
    return toVendorView(row, await this.repository.vendorModelCounts());
  }

  async create(input: CreateInput): Promise<VendorView> {
    const name = input.name?.trim() ?? '';
    if (!name) throw new AppError(modelCatalogueMessages.vendorNameRequired);
    if (await this.repository.vendorNameTaken(name, 0)) throw new AppError(modelCatalogueMessages.vendorNameTaken);
    const columns: VendorColumns = { name, description: input.description ?? '', icon: input.icon?.trim() ?? '', status: input.status ?? 1 };
    return this.get(await this.repository.insertVendor(columns, this.clock.unixSeconds()));
  }

  /** Changes the fields sent; the name, when sent, must stay non-empty and unique. */
  async update(input: UpdateInput): Promise<VendorView> {
    const columns: Partial<VendorColumns> = {};
    if (sent(input.name)) {
      columns.name = input.name.trim();
      if (!columns.name) throw new AppError(modelCatalogueMessages.vendorNameRequired);
      if (await this.repository.vendorNameTaken(columns.name, input.id)) throw new AppError(modelCatalogueMessages.vendorNameTaken);
    }
    if (sent(input.description)) columns.description = input.description;
    if (sent(input.icon)) columns.icon = input.icon.trim();
    if (sent(input.status)) columns.status = input.status;
    if (!(await this.repository.updateVendor(input.id, columns, this.clock.unixSeconds()))) throw new AppError(modelCatalogueMessages.vendorNotFound);
    return this.get(input.id);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repository.softDeleteVendor(id, new Date(this.clock.now())))) throw new AppError(modelCatalogueMessages.vendorNotFound);
    await this.repository.clearVendor(id, this.clock.unixSeconds());
  }
}
