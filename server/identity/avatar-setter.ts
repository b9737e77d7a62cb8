import fs from 'node:fs';
import path from 'node:path';
import { FILES_URL_PREFIX, type UploadedFile } from '../files/file-routes.ts';
import { sanitiseFilename, storedFileName } from '../files/stored-file-name.ts';
import { HttpError } from '../http/http-error.ts';
import type { UploadedContent } from '../files/read-uploaded-file.ts';
import { imageType } from './image-signature.ts';
import type { UserAccounts } from './user-accounts.ts';

/**
 * Sets a user's own picture (the signed-in caller's: identity-operations.ts) from an uploaded
 * file (REST multipart, GraphQL Upload; both within MAX_UPLOAD_BYTES). Only PNG and JPEG, judged by content (a renamed file is
 * refused with 415). Stored like every upload under DATA_DIR/avatars/<yyyy>/<mm>/ with a random
 * name, served by GET /files/*; the user's avatar becomes its URL.
 */
export type AvatarSetter = (userId: string, file: UploadedContent) => Promise<UploadedFile>;

export function createAvatarSetter(deps: { dataDir: string; accounts: UserAccounts }): AvatarSetter {
  return async (userId, { filename, content }) => {
    const type = imageType(content);
    if (!type) throw new HttpError(415, 'The avatar must be a PNG or JPEG image', { i18nMessage: 'error.unsupportedImage' });
    const now = new Date();
    const relativeDir = ['avatars', String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0')];
    const name = storedFileName(`avatar.${type.extension}`);
    await fs.promises.mkdir(path.join(deps.dataDir, ...relativeDir), { recursive: true });
    await fs.promises.writeFile(path.join(deps.dataDir, ...relativeDir, name), content, { flag: 'wx' });
    const filepath = [...relativeDir, name].join('/');
    const url = FILES_URL_PREFIX + filepath;
    await deps.accounts.setFields(userId, { avatar: url });
    return { filename: sanitiseFilename(filename), filepath, size: content.length, mimetype: type.mimetype, url };
  };
}
