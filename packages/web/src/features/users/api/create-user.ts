import { api } from '../../../lib/api-client.ts';

export interface CreateUserInput {
  username: string;
  display_name: string;
  password: string;
}

/** POST /api/user/ */
export function createUser(input: CreateUserInput): Promise<unknown> {
  return api.post('/api/user/', input);
}
