// Bad: js-cookie is installed (hoisted to the root) but not in this workspace's package.json.
import Cookies from 'js-cookie';

export const region = () => Cookies.get('region');
