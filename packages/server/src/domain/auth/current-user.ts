/** The authenticated console caller, attached to the request by the auth hook. */
export interface CurrentUser {
  id: number;
  username: string;
  displayName: string;
  role: number;
  status: number;
  group: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every /api request whose caller is logged in (also on public routes). */
    currentUser?: CurrentUser;
  }
}
