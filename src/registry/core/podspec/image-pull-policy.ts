/**
 * The image pull policy a container (or an image volume) gets when it names none: `Always` for
 * the tag `latest`, else `IfNotPresent` (SetDefaults_Container). The tag is the one
 * k8s.io/kubernetes/pkg/util/parsers.ParseImageName finds with the distribution reference
 * grammar, after docker's normalization: a reference with neither tag nor digest is `latest`,
 * one with only a digest has no tag, and one that does not parse (an upper-case repository, a
 * 64-hex identifier, a bad digest) has no tag either, so it is `IfNotPresent`.
 */

const alnum = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alnum}(?:${separator}${alnum})*`;
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])`;
const domain = `${host}(?::[0-9]+)?`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}';
const reference = new RegExp(`^((?:${domain}/)?${pathComponent}(?:/${pathComponent})*)(?::(${tag}))?(?:@(${digest}))?$`);
const identifier = /^[a-f0-9]{64}$/;
/** go-digest's registered algorithms and their hex lengths. */
const digestHexLength: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };
const nameTotalLengthMax = 255;

/** The tag ParseImageName returns for `image`: '' when it has none or does not parse. */
export function imageTag(image: string): string {
  if (identifier.test(image)) return '';
  // docker's splitDockerDomain: a first component with '.' or ':', `localhost` or an upper-case
  // letter is a registry; anything else is a Docker Hub path (`library/` for a bare name).
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasDomain = slash >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first);
  const remainder = hasDomain ? image.slice(slash + 1) : image;
  // The repository (up to the first ':') must be lower case.
  const colon = remainder.indexOf(':');
  const remoteName = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remoteName.toLowerCase() !== remoteName) return '';
  const m = reference.exec(hasDomain ? image : `docker.io/${remainder.includes('/') ? '' : 'library/'}${remainder}`);
  if (!m) return '';
  if (m[1]!.length > nameTotalLengthMax) return '';
  const d = m[3];
  if (d !== undefined) {
    const [algorithm, hex] = d.split(':') as [string, string];
    if (digestHexLength[algorithm] !== hex.length || !/^[a-f0-9]+$/.test(hex)) return '';
  }
  if (m[2] !== undefined) return m[2];
  return d === undefined ? 'latest' : '';
}

/** `Always` for an image whose tag is `latest`, else `IfNotPresent`. */
export const defaultPullPolicy = (image: unknown): string => (imageTag(typeof image === 'string' ? image : '') === 'latest' ? 'Always' : 'IfNotPresent');
