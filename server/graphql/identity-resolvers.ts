import type { FastifyRequest } from 'fastify';
import type { EntityModelMap } from '../../contract/model/entity-model.ts';
import type { EntityService } from '../entities/entity-service.ts';
import { routePermission } from '../entities/route-permission.ts';
import type { Enforce } from '../http/authorize-route.ts';
import { authenticationError } from '../http/authentication-error.ts';
import { HttpError } from '../http/http-error.ts';
import { unusableTextIn } from '../http/reject-nul-bytes.ts';
import { currentUserOf } from '../identity/auth-routes.ts';
import { createDirectory } from '../identity/directory-routes.ts';
import type { FileUploader } from '../files/file-routes.ts';
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
  service: EntityService;
  entities: EntityModelMap;
  enforce: Enforce;
  maxUploadBytes: number;
  /** The functions the REST routes run (server/identity/identity-operations.ts). */
  operations: IdentityOperations;
  /** POST /api/file's upload, its per-user limits included (server/files/file-routes.ts). */
  uploadFile: FileUploader;
}

/**
 * Every operation calls the identity and file code the REST routes call, with the caller's
 * request: the same caller checks, validation and errors, and the same attempt counters for
 * sign-in, Google sign-in and password change (server/identity/credential-limits.ts), so
 * alternating REST and GraphQL, or aliasing a mutation many times in one request, gives no
 * extra attempts.
 */
export function identityResolvers(deps: IdentityResolverDeps): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const { service, entities, enforce, maxUploadBytes, operations, uploadFile } = deps;
  const directory = createDirectory({ service, entities });
  const signedIn = (work: (request: FastifyRequest, args: Record<string, unknown>) => unknown): Resolver =>
    (_root, args, { request }) => resolving(async () => {
      if (request.context.userId === null) throw authenticationError(request.context);
      return work(request, args);
    });
  const me = (request: FastifyRequest) => currentUserOf(service, request.context.userId!);
  return {
    Query: {
      me: signedIn(me),
      permissions: signedIn(() => directory.permissions()),
      rolesAll: signedIn((request) => directory.rolesAll(request.context)),
      tenantsAll: signedIn((request) => directory.tenantsAll(request.context)),
      settings: () => resolving(async () => {
        throw new HttpError(501, 'Not implemented', { i18nMessage: 'error.notImplemented' });
      }),
    },
    Mutation: {
      login: (_root, args, { request, reply }) => resolving(() => operations.signIn(request, reply, args)),
      passwordChange: (_root, args, { request, reply }) => resolving(() => operations.passwords.changeOwn(request, reply, args)),
      userPasswordChange: (_root, args, { request }) => resolving(() => operations.passwords.reset(request, String(args.userId), args)),
      googleLogin: (_root, args, { request, reply }) => resolving(() => operations.googleSignIn(request, reply, args)),
      // The generic create: the secret comes from the userApiKey beforeInsert hook (api-key-routes.ts).
      userApiKeyCreateWithSecret: (_root, args, { request }) => resolving(async () => {
        await enforce(request, routePermission(entities.userApiKey, 'create'));
        const unusable = unusableTextIn([args]);
        if (unusable) throw unusable;
        return service.create('userApiKey', request.context, { ...(args.data as object) });
      }),
      avatar: signedIn(async (request, args) => {
        await operations.setAvatar(request, await readUpload(args.file as GraphqlUpload, maxUploadBytes));
        return me(request);
      }),
      uploadFile: (_root, args, { request }) => resolving(async () => {
        const dir = args.dir === undefined || args.dir === null ? 'files' : String(args.dir);
        return uploadFile(request, dir, () => openUpload(args.file as GraphqlUpload));
      }),
    },
  };
}
