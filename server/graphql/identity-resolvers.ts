import type { EntityOperations } from '../entities/operations/entity-operations.ts';
import { HttpError } from '../http/http-error.ts';
import type { FileUploader } from '../files/file-routes.ts';
import { callerOf } from '../operations/operation-caller.ts';
import type { IdentityOperations } from '../identity/identity-operations.ts';
import { openUpload, readUpload, type GraphqlUpload } from './graphql-upload.ts';
import { resolving } from './graphql-errors.ts';
import type { ResolverContext } from './entity-resolvers.ts';

/** Hand-written part of the schema: identity, permissions, uploads (docs/product-rules.md#calls). */
export const identityTypeDefs = `
type AccessToken { accessToken: String! }
type MeRole { id: ID! name: String permissions: [String!]! }
type MeTenant { id: ID! name: String }
type Me {
  id: ID!
  _id: ID!
  username: String
  name: String
  email: String
  phone: String
  role: MeRole
  tenant: MeTenant
  avatar: String
}
"""An API key as created: the secret is returned once, here and never again."""
type CreatedUserApiKey {
  _id: ID!
  name: String
  secret: String!
  ipv4: [String!]
  ipv6: [String!]
}
input UserApiKeyCreateInput { name: String! ipv4: [String!] ipv6: [String!] user: ID }

extend type Query {
  me: Me!
  permissions: [String!]!
  rolesAll: [Role!]!
  tenantsAll: [Tenant!]!
  """Settings are not available over GraphQL (docs/product-rules.md#product): always fails with 'Not implemented'."""
  settings: [JSON!]
}

extend type Mutation {
  login(username: String!, password: String!): AccessToken!
  passwordChange(currentPassword: String!, newPassword: String!): Boolean!
  userPasswordChange(userId: ID!, newPassword: String!): Boolean!
  googleLogin(credential: String!): AccessToken!
  userApiKeyCreateWithSecret(data: UserApiKeyCreateInput!): CreatedUserApiKey!
  avatar(file: Upload!): Me!
  uploadFile(file: Upload!, dir: String): UploadedFile!
}
`;

type Resolver = (root: unknown, args: Record<string, unknown>, context: ResolverContext) => Promise<unknown>;

export interface IdentityResolverDeps {
  maxUploadBytes: number;
  /** The operations the REST routes run (server/identity/identity-operations.ts). */
  operations: IdentityOperations;
  /** The generic userApiKey operations: its create answers the secret once (server/identity/api-key-routes.ts). */
  userApiKey: EntityOperations;
  /** POST /api/file's upload operation, its per-user limits included (server/files/file-routes.ts). */
  uploadFile: FileUploader;
}

/**
 * The GraphQL adapter of the identity and file operations the REST routes run, with the caller's
 * request: the same access decisions, validation and errors, and the same attempt counters for
 * sign-in, Google sign-in and password change (server/identity/credential-limits.ts), so
 * alternating REST and GraphQL, or aliasing a mutation many times in one request, gives no
 * extra attempts. Nothing here decides who may run what.
 */
export function identityResolvers(deps: IdentityResolverDeps): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const { maxUploadBytes, operations, userApiKey, uploadFile } = deps;
  const { me } = operations;
  return {
    Query: {
      me: (_root, _args, { request }) => resolving(() => me(callerOf(request), undefined)),
      permissions: (_root, _args, { request }) => resolving(() => operations.permissions(callerOf(request), undefined)),
      rolesAll: (_root, _args, { request }) => resolving(() => operations.rolesAll(callerOf(request), undefined)),
      tenantsAll: (_root, _args, { request }) => resolving(() => operations.tenantsAll(callerOf(request), undefined)),
      settings: () => resolving(async () => {
        throw new HttpError(501, 'Not implemented', { i18nMessage: 'error.notImplemented' });
      }),
    },
    Mutation: {
      login: (_root, args, { request, reply }) => resolving(() => operations.signIn(callerOf(request, reply), args)),
      passwordChange: (_root, args, { request, reply }) => resolving(() => operations.changeOwnPassword(callerOf(request, reply), args)),
      userPasswordChange: (_root, args, { request }) => resolving(() => operations.resetPassword(callerOf(request), { userId: String(args.userId), body: args })),
      googleLogin: (_root, args, { request, reply }) => resolving(() => operations.googleSignIn(callerOf(request, reply), args)),
      // The generic create: the secret comes from the userApiKey beforeInsert hook (api-key-routes.ts).
      userApiKeyCreateWithSecret: (_root, args, { request }) => resolving(() => userApiKey.create(callerOf(request), { data: { ...(args.data as object) } })),
      avatar: (_root, args, { request }) => resolving(async () => {
        const caller = callerOf(request);
        await operations.setAvatar(caller, { read: () => readUpload(args.file as GraphqlUpload, maxUploadBytes) });
        return me(caller, undefined);
      }),
      uploadFile: (_root, args, { request }) => resolving(async () => {
        const dir = args.dir === undefined || args.dir === null ? 'files' : String(args.dir);
        return uploadFile(callerOf(request), { dir, open: () => openUpload(args.file as GraphqlUpload) });
      }),
    },
  };
}
