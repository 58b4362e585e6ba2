import type { DrawingView, Page, TaskView } from '@switchboard/contracts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { pageOf, type PageRequest } from '../../../core/http/listing/page-query.ts';
import { toDrawingView, toTaskView } from './task-view.ts';
import type { TaskListFilters, TaskRepository } from './task.repository.ts';

/** The drawing (Midjourney) and async task lists, as the console pages them. */
export class TaskService {
  private readonly repository: TaskRepository;
  private readonly options: OptionStore;

  constructor(dependencies: { repository: TaskRepository; options: OptionStore }) {
    this.repository = dependencies.repository;
    this.options = dependencies.options;
  }

  async drawings(filters: TaskListFilters, page: PageRequest): Promise<Page<DrawingView>> {
    const { rows, total } = await this.repository.drawings(filters, page.offset, page.pageSize);
    const forward = { enabled: this.options.getBoolean('MjForwardUrlEnabled'), serverAddress: this.options.get('ServerAddress') };
    return pageOf(
      rows.map((row) => toDrawingView(row, forward)),
      total,
      page.page,
      page.pageSize,
    );
  }

  async tasks(filters: TaskListFilters, page: PageRequest): Promise<Page<TaskView>> {
    const { rows, total } = await this.repository.tasks(filters, page.offset, page.pageSize);
    return pageOf(rows.map(toTaskView), total, page.page, page.pageSize);
  }
}
